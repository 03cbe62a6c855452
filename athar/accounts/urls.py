from django.urls import path

from athar.accounts import views

app_name = "accounts"
urlpatterns = [
    path("sign-in/", views.sign_in, name="login"),
    path("sign-out/", views.sign_out, name="logout"),
    path("invitation/", views.redeem, name="redeem"),
]
