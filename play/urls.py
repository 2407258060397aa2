"""Pages of play: start, the table, the next hand, reviews, sharing, uploads, the record."""

from django.urls import path

from . import entry_views, views

urlpatterns = [
    path("play/", views.start, name="play"),
    path("play/upload/", views.upload, name="play-upload"),
    path("play/enter/", entry_views.enter, name="play-enter"),
    path("play/<int:game_id>/", views.table, name="play-table"),
    path("play/<int:game_id>/next/", views.next_hand, name="play-next"),
    path("play/<int:game_id>/auto/", views.auto, name="play-auto"),
    path("play/<int:game_id>/game-review/", views.game_review, name="play-game-review"),
    path("play/<int:hand_id>/review/", views.review, name="play-review"),
    path("play/<int:hand_id>/review/again/", views.review_again, name="play-review-again"),
    path("play/<int:hand_id>/play-on/", views.play_on, name="play-on"),
    path("play/<int:hand_id>/branch/", views.branch, name="play-branch"),
    path("play/<int:hand_id>/share/", views.share, name="play-share"),
    path("play/<int:hand_id>/unshare/", views.unshare, name="play-unshare"),
    path("play/<int:hand_id>/record.json", views.record, name="play-record"),
    path("play/shared/<str:token>/", views.shared_review, name="play-shared"),
    path("play/items/<int:item_id>/", views.review_item, name="play-item"),
]
