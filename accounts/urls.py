"""Pages of the accounts app: sign-up, log-in, log-out, password change and reset, the e-mail address, the town (/town/)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="logged_out"), name="logout"),
    path("accounts/logged-out/", views.logged_out, name="logged_out"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/email/", views.email, name="account_email"),
    path("town/", views.town, name="town"),
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/reset/done/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
