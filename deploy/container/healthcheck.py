"""The image's HEALTHCHECK: healthy while /healthz answers 200 (the app is up and
reaches its database), over the container's own loopback."""

import sys
import urllib.error
import urllib.request

try:
    with urllib.request.urlopen("http://127.0.0.1:8000/healthz", timeout=4) as answer:
        sys.exit(0 if answer.status == 200 else 1)
except (urllib.error.URLError, OSError) as error:
    print(f"unhealthy: {error}", file=sys.stderr)
    sys.exit(1)
