#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q calc && cd calc
printf '#!/bin/sh\n# exits 0 when the calculator works\npython3 -c "from ops import add, mul; assert add(2, 2) == 4 and add(0, 5) == 5 and mul(3, 4) == 12"\n' > check.sh && chmod +x check.sh
printf 'def _norm(x):\n    return x\n\n\ndef add(a, b):\n    return _norm(a) + _norm(b)\n\n\ndef mul(a, b):\n    return a * b\n' > ops.py
printf '# calc\n' > README.md
printf '__pycache__/\n' > .gitignore
git add . && c -m "Calculator"
for i in 1 2 3 4 5 6; do printf 'v%s\n' $i > VERSION && git add VERSION && c -m "Release 0.$i"; done
sed -i 's/    return x$/    return int(x) if x else 1/' ops.py && c -am "Normalize numeric inputs"
for i in 7 8 9 10 11; do printf 'v%s\n' $i > VERSION && printf '# calc\n\nrelease %s\n' $i > README.md && c -am "Release 0.$i"; done
printf 'def sub(a, b):\n    return a - b\n' > more.py && git add more.py && c -m "Add sub"
printf 'v12\n' > VERSION && c -am "Release 0.12"
