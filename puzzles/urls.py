"""Pages of the drills: drill, quiz, progress, reports of a bad drill (and the staff page that lists them)."""

from django.urls import path

from . import views

urlpatterns = [
    path("drills/", views.drills, name="drills"),
    path("drills/<int:pk>/", views.drill, name="drill"),
    path("drills/<int:pk>/report/", views.report, name="drill-report"),
    path("drills/reports/", views.reports, name="drill-reports"),
    path("drills/reports/resolve/", views.resolve, name="drill-reports-resolve"),
    path("learn/quiz/", views.quiz_next, name="quiz-next"),
    path("learn/quiz/<int:pk>/", views.quiz, name="quiz"),
    path("progress/", views.progress, name="progress"),
]
