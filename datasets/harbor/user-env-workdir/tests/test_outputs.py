import os
import pwd
from pathlib import Path

OUT = Path("/srv/work/greeting.txt")


def test_greeting_written():
    assert OUT.read_text() == "bonjour\n"


def test_written_as_the_image_user():
    assert pwd.getpwuid(os.stat(OUT).st_uid).pw_name == "agent"
