"""In Chromium: forgot the password, get the mail (locmem), open its link, set a new one, keep the progress."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from accounts.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_reset_a_forgotten_password_by_mail(page):
    user = User.objects.create_user("ann", email="ann@example.org", password="old-tiles-and-dragons-1")
    Player.objects.create(user=user, rating=1720)
    page.goto(f"{page.base}/accounts/login/")
    page.get_by_role("link", name="忘记密码？").click()
    page.fill("#id_email", "ann@example.org")
    page.get_by_role("button", name="发送链接").click()
    page.wait_for_url("**/accounts/password/reset/sent/")
    assert "请查收邮件" in page.locator("h1").inner_text()
    (message,) = mail.outbox
    link = re.search(r"https?://\S+/accounts/reset/\S+/", message.body).group(0)
    page.goto(link)
    page.fill("#id_new_password1", "new-winds-and-dragons-7")
    page.fill("#id_new_password2", "new-winds-and-dragons-7")
    page.get_by_role("button", name="保存新密码").click()
    page.wait_for_url("**/accounts/reset/done/")
    assert "你已用新密码登录为 ann" in page.locator("main").inner_text()
    page.get_by_role("link", name=re.compile("我的进度")).click()
    assert page.get_by_test_id("rating").inner_text() == "1720?"  # the account and its progress, kept


def test_sign_up_from_the_phone_menu_comes_back_to_the_page(page):
    """Issue 38 item 7: at 390 px, "Sign up" in the menu of a page brings the new account back to that page (log in always did)."""
    page.goto(f"{page.base}/learn/fans/?from=menu")
    page.locator("summary").first.click()  # the phone menu holds the account links
    page.locator(".menu-panel a[href^='/accounts/signup/']").click()
    page.wait_for_url("**/accounts/signup/**")
    page.fill("#id_username", "lin")
    page.fill("#id_password1", "tiles-and-dragons-38")
    page.fill("#id_password2", "tiles-and-dragons-38")
    page.locator("form[action^='/accounts/signup/'] button").click()
    page.wait_for_url("**/learn/fans/?from=menu")
    assert User.objects.filter(username="lin").exists()
