#!/bin/bash
python3 -c "import urllib.request; open('/app/key.txt','wb').write(urllib.request.urlopen('http://kv:9000/key').read())"
