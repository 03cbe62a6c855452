from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Numbers written in photos: athar numbers read IMAGE... (detainee and branch numbers, to suggest)."
    group = "numbers"
