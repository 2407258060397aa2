"""URLs of the settlement app: the calculator and score-sheet pages, and the settle API."""

from django.urls import path

from . import api
from .views import calculator, hand_delete, hand_form, sheet_csv, sheet_delete, sheet_detail, sheet_edit, sheet_list

api_urlpatterns = [
    path("settle/", api.SettleView.as_view(), name="api-settle"),
]

page_urlpatterns = [
    path("settle/", calculator, name="settle"),
    path("settle/sheets/", sheet_list, name="settle-sheets"),
    path("settle/sheets/<int:sheet_id>/", sheet_detail, name="settle-sheet"),
    path("settle/sheets/<int:sheet_id>.csv", sheet_csv, name="settle-sheet-csv"),
    path("settle/sheets/<int:sheet_id>/edit/", sheet_edit, name="settle-sheet-edit"),
    path("settle/sheets/<int:sheet_id>/delete/", sheet_delete, name="settle-sheet-delete"),
    path("settle/sheets/<int:sheet_id>/hands/new/", hand_form, name="settle-hand-new"),
    path("settle/sheets/<int:sheet_id>/hands/<int:hand_id>/", hand_form, name="settle-hand-edit"),
    path("settle/sheets/<int:sheet_id>/hands/<int:hand_id>/delete/", hand_delete, name="settle-hand-delete"),
]
