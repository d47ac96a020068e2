#!/usr/bin/env bash
# Runs the first two ```sh blocks of README.md (the quick start), so the README stays true.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t blocks < <(awk '/^```sh$/{inside=1; body=""; next} /^```$/{if(inside){print body; n++; if(n==2) exit}; inside=0; next} inside{body = body (body==""?"":" && ") $0}' README.md)
if [ "${#blocks[@]}" -lt 2 ]; then
  echo "README.md must start with two \`\`\`sh blocks: the example analysis and the test command" >&2
  exit 1
fi
for cmd in "${blocks[@]}"; do
  echo "+ $cmd"
  bash -c "$cmd"
done
