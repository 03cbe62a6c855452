from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = "Accounts: athar user add (--email E | --phone P) --role ROLE --password-stdin [--totp]; athar user enrol --login L."
    group = "user"
