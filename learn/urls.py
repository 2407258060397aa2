"""Pages of the learn app: the rules, the fans, settlement, the glossary, the 口诀 and its memorise mode."""

from django.urls import path

from . import views

urlpatterns = [
    path("learn/", views.index, name="learn-index"),
    path("learn/tiles/", views.tiles, name="learn-tiles"),
    path("learn/play/", views.play, name="learn-play"),
    path("learn/shapes/", views.shapes, name="learn-shapes"),
    path("learn/fans/", views.fans, name="learn-fans"),
    path("learn/settlement/", views.settlement, name="learn-settlement"),
    path("learn/towns/", views.towns, name="learn-towns"),
    path("learn/towns/<str:key>/", views.town, name="learn-town"),
    path("learn/glossary/", views.glossary, name="learn-glossary"),
    path("learn/koujue/", views.koujue, name="learn-koujue"),
    path("learn/koujue/memorise/", views.memorise, name="learn-memorise"),
]
