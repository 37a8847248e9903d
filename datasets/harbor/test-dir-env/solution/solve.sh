#!/bin/bash
printf '#!/bin/sh\necho ready\n' > /app/run.sh && chmod +x /app/run.sh
