from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Ingest an archive folder of photos (<facility>/<case>/<photo>), hashed and tamper-evident.'
    group = 'ingest'
