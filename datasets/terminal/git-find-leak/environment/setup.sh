#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q service && cd service
a() { export GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2"; }
a 'Bob Builder' bob@example.com
printf 'DEBUG = False\n' > settings.py && git add . && c -m "Initial settings"
a 'Carol Chen' carol@example.com
printf 'def handler():\n    return 200\n' > app.py && git add . && c -m "Add handler"
printf '# Keys look like sk-live-XXXX in production.\n' > KEYS.md && git add . && c -m "Document key format"
a 'Mallory Moss' mallory@example.com
printf 'DEBUG = True\n' > settings_local.py && git add . && c -m "Add local settings"
printf 'API_KEY = "sk-test-51f0c3a9d2"\n' >> settings_local.py && c -am "Tweak local settings"
a 'Dan Dorsey' dan@example.com
printf 'def handler():\n    return 201\n' > app.py && c -am "Return 201"
mkdir config && git mv settings_local.py config/local.py && c -m "Reorganize config"
a 'Erin Eads' erin@example.com
printf 'DEBUG = True\nimport os\nAPI_KEY = os.environ["API_KEY"]\n' > config/local.py && c -am "Read the key from the environment"
printf 'def handler():\n    return 204\n' > app.py && c -am "Return 204"
