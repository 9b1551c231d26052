#!/bin/sh
# A stand-in for Apptainer on the test cluster: Apptainer cannot be installed on the test machines
# (not in Debian here, and it cannot be built offline). It records each call's arguments in
# ~/apptainer-calls.log; `pull` and `build` write a small file naming their source (`build` checks
# that the docker-archive is a `docker save` tar); `run` starts the svc runtime that svc installed
# in ~/svc/runtime bare, with the arguments after the image, as the image's entry point would.
set -eu
printf '%s\n' "$*" >> "$HOME/apptainer-calls.log"
command=$1
shift
case "$command" in
  pull)
    printf 'stand-in image pulled from %s\n' "$2" > "$1"
    ;;
  build)
    archive=${2#docker-archive://}
    tar -tf "$archive" manifest.json > /dev/null || { echo "apptainer (stand-in): $2 is not a docker save archive" >&2; exit 1; }
    printf 'stand-in image built from %s\n' "$2" > "$1"
    ;;
  run)
    while [ "$#" -gt 0 ]; do
      case "$1" in
        --nv) shift ;;
        --bind) shift 2 ;;
        *) break ;;
      esac
    done
    image=$1
    shift
    [ -f "$image" ] || { echo "apptainer (stand-in): no image at $image" >&2; exit 1; }
    runtime=$(ls -d "$HOME"/svc/runtime/*/ | head -n 1)
    exec "${runtime}bin/bun" "${runtime}app/runtimes/text-generation/src/main.ts" "$@"
    ;;
  *)
    echo "apptainer (stand-in): unknown command $command" >&2
    exit 1
    ;;
esac
