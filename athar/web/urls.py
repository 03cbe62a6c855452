from django.urls import path

from athar.web import views

app_name = "web"
urlpatterns = [
    path("", views.home, name="home"),
]
