from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Ranked archive cases for a missing person or a report, with the decision and the reasons.'
    group = 'candidates'
