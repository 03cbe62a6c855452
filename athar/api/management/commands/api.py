from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "The JSON API: athar api token --login L --name N (prints the token once)."
    group = "api"
