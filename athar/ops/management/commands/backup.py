from athar.core.command import GroupCommand


class Command(GroupCommand):
    help = 'Back up the database and the media store into one tar archive with a sha256 manifest (OUT: a new file, or a folder for a dated file; --retention-days prunes older ones there).'
    group = 'backup'
