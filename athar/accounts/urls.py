from django.urls import path

from athar.accounts import views

app_name = "accounts"
urlpatterns = [
    path("login/", views.sign_in, name="login"),
    path("logout/", views.sign_out, name="logout"),
    path("quick-exit/", views.quick_exit, name="quick_exit"),
    path("invitation/", views.redeem, name="redeem"),
    path("register/", views.register, name="register"),
    path("new-password/", views.reset_password_page, name="reset_password"),
    path("recover/", views.recover, name="recover"),
    path("recovery-codes/", views.recovery_codes, name="recovery_codes"),
    path("caseworker-code/", views.agreement, name="agreement"),
]
