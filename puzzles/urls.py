"""Pages of the drills: drill, quiz, progress, accounts."""
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import path

from . import accounts, views

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
    path("accounts/email/", accounts.email, name="account_email"),
    path("accounts/password/reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(extra_context={"timeout_hours": settings.PASSWORD_RESET_TIMEOUT // 3600}),
         name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", accounts.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
