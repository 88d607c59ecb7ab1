#!/usr/bin/env bash
# Copies an adopter's project out of the tree, as another team would hold it, and prints the copy's folder:
#
#   build/consumer.sh TEMPLATE [PACKAGES_DIR]
#
# TEMPLATE is a folder under build/ (package-consumer, package-addons-consumer) or ../samples. The copy gets a
# nuget.config that takes the packages from PACKAGES_DIR (default artifacts/packages) and everything else from the feed,
# into a private packages folder (COPY-packages), so a package of the same version restored earlier can never stand in
# for the one just built. test-package.sh sources this file and deletes what it made; run on its own (a series of
# unchanged runs of the samples), the copy stays until you delete it.
consumer() {
  local here packages folder
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  packages=$(cd "${2:-$here/../artifacts/packages}" && pwd)
  folder=$(mktemp -d "${TMPDIR:-/tmp}/perfbudgets-consumer-XXXXXXXX")
  cp -r "$here/$1"/. "$folder"/
  cat > "$folder/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <config><add key="globalPackagesFolder" value="$folder-packages" /></config>
  <packageSources>
    <clear />
    <add key="local" value="$packages" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
  </packageSources>
</configuration>
XML
  echo "$folder"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  consumer "${1:?TEMPLATE (package-consumer, package-addons-consumer or ../samples)}" "${2:-}"
fi
