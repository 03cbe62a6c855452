from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Registry of the missing: import reports, link them into missing persons, the template."
    group = "registry"
