#!/usr/bin/env bash
# Copies an adopter's project out of the tree, as another team would hold it, and prints the copy's folder:
#
#   build/consumer.sh TEMPLATE [PACKAGES_DIR]
#
# TEMPLATE is a folder under build/ (package-consumer, package-addons-consumer) or ../samples. The copy gets a
# nuget.config that adds PACKAGES_DIR (default artifacts/packages) to the sources of the machine's own NuGet
# configuration (which reaches the feed for everything else), into a private packages folder (COPY-packages), so a package of the same version restored earlier can never stand in
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
    <add key="perfbudgets-local" value="$packages" />
  </packageSources>
</configuration>
XML
  echo "$folder"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  consumer "${1:?TEMPLATE (package-consumer, package-addons-consumer or ../samples)}" "${2:-}"
fi
