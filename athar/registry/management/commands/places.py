from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Places: import a gazetteer of Syrian governorates, districts and sub-districts."
    group = "places"
