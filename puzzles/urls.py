"""Pages of the drills: drill, quiz, progress."""

from django.urls import path

from . import views

urlpatterns = [
    path("drills/", views.drills, name="drills"),
    path("drills/<int:pk>/", views.drill, name="drill"),
    path("learn/quiz/", views.quiz_next, name="quiz-next"),
    path("learn/quiz/<int:pk>/", views.quiz, name="quiz"),
    path("progress/", views.progress, name="progress"),
]
