"""`python3 -m sglang.launch_server` (or svc's key launcher's runpy of it): the stand-in (svc_stand_in.sglang_server)."""
import sys

from svc_stand_in.sglang_server import main

if __name__ == "__main__":
    main(sys.argv[1:])
