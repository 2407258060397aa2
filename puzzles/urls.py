"""Pages of the drills: drill, quiz, progress, accounts."""
from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("drills/", views.drills, name="drills"),
    path("drills/<int:pk>/", views.drill, name="drill"),
    path("learn/quiz/", views.quiz_next, name="quiz-next"),
    path("learn/quiz/<int:pk>/", views.quiz, name="quiz"),
    path("progress/", views.progress, name="progress"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password_change"),
]
