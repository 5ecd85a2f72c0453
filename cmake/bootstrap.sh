#!/usr/bin/env bash
# Set-up from a fresh clone on Debian: installs the missing packages, builds, then
#   run               prints the main job's output (the default)
#   test              runs every test (unit, golden, install smoke test)
#   sanitize          builds with ASan+UBSan and runs every test under them
#   fuzz [SECONDS]    builds the libFuzzer targets with clang and runs each for SECONDS (60),
#                     as many at once as there are cores
#   package           builds the release .deb with CPack, checks its contents, unpacks it into a
#                     scratch root and runs the unpacked icx from an empty directory
#   format            checks that every C++ source is as clang-format writes it (.clang-format)
#   tidy              builds the libraries with clang-tidy (.clang-tidy, src/.clang-tidy): any
#                     finding, a function over 60 lines among them, fails the build
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
mode=${1:-run}

packages=(cmake make g++ libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev)
case "$mode" in
  fuzz) packages+=(clang libclang-rt-dev) ;;
  tidy) packages+=(clang clang-tidy) ;;
  package) packages+=(dpkg-dev file) ;;
  format) packages=(clang-format git) ;;
  # zsh lets the tests check the zsh completion script (skipped where zsh is absent);
  # gnuplot-nox draws the charts and chromium renders icx report's page to a screenshot
  # (with DejaVu, so the text of both is drawn the same on every machine); python3 reads the
  # charts' SVG and the plan and place documents in the shell tests.
  test | sanitize) packages+=(zsh gnuplot-nox chromium fonts-dejavu-core python3) ;;
  run) ;;
  *)
    echo "usage: bash cmake/bootstrap.sh [run|test|sanitize|fuzz [SECONDS]|package|format|tidy]" >&2
    exit 2
    ;;
esac

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# build PRESET [TARGET...]: configure and build the preset, only the targets named if any.
build() {
  local preset=$1
  shift
  cmake --preset "$preset" >/dev/null
  if (($#)); then
    cmake --build --preset "$preset" --target "$@"
  else
    cmake --build --preset "$preset"
  fi
}

case "$mode" in
  format)
    git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run -Werror
    echo "clang-format: every source is formatted"
    ;;
  run)
    build release icx
    ./build/release/icx tp --model 70b --tokens 4096 --wire pcie5
    ;;
  test)
    build release
    ctest --preset release
    ;;
  sanitize)
    build asan
    ctest --preset asan
    ;;
  tidy)
    # clang-tidy on what the tidy preset compiles, without compiling it: the unity sources (a
    # dozen files each, so each header is analysed once per dozen) and the sources kept as
    # units of their own; the generated data files are left out.
    cmake --preset tidy >/dev/null
    run-clang-tidy -p build/tidy -j "$(nproc)" -quiet \
      '(Unity/unity_[0-9]+_cxx[.]cxx|/src/[a-z_]+/[a-z_/]+[.]cpp)$' >build/tidy/tidy.log 2>&1 || {
      grep -E "(error|warning):" build/tidy/tidy.log | sort -u
      echo "clang-tidy: findings above (whole log: build/tidy/tidy.log)"
      exit 1
    }
    echo "clang-tidy: no finding"
    ;;
  fuzz)
    seconds=${2:-60}
    build fuzz
    # One target per core at a time: each libFuzzer run is single-threaded.
    fuzz_one() {
      local target=$1 name corpus log seeds
      name=$(basename "$target")
      corpus="build/fuzz/corpus/$name"
      log="build/fuzz/$name.log"
      mkdir -p "$corpus"
      mapfile -t seeds <"tests/fuzz/$name.seeds"
      # A finding (crash, sanitizer report, leak) fails the script; the full log stays for it.
      if ! "$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="build/fuzz/$name-" >"$log" 2>&1; then
        printf '%s\n' "$(tail -n 40 "$log")" \
          "fuzz: $name found a failing input (see $log and build/fuzz/$name-*)" >&2
        return 1
      fi
      printf '%s\n' "Fuzzed $name for ${seconds}s" "$(tail -n 12 "$log")"
    }
    cores=$(nproc)
    failed=0
    for target in build/fuzz/tests/fuzz/fuzz_*; do
      while (($(jobs -rp | wc -l) >= cores)); do wait -n || failed=1; done
      fuzz_one "$target" &
    done
    while (($(jobs -rp | wc -l) > 0)); do wait -n || failed=1; done
    exit "$failed"
    ;;
  package)
    build release icx icx_man_page icx_man_page_gz
    rm -f build/release/icx_*.deb
    (cd build/release && cpack -G DEB >/dev/null)
    deb=$(ls build/release/icx_*.deb)
    echo "Built $deb"
    dpkg-deb --field "$deb" Package Version Architecture Maintainer Depends
    contents=$(dpkg-deb --contents "$deb")
    for file in ./usr/bin/icx ./usr/share/man/man1/icx.1.gz ./usr/share/bash-completion/completions/icx \
      ./usr/share/zsh/vendor-completions/_icx ./usr/share/doc/icx/README.md \
      ./usr/share/doc/icx/copyright; do
      grep -q " $file\$" <<<"$contents" || { echo "package lacks $file" >&2; exit 1; }
    done
    # One zsh completion (Debian's zsh reads vendor-completions), no uncompressed man page.
    for file in ./usr/share/zsh/site-functions/_icx ./usr/share/man/man1/icx.1; do
      grep -q " $file\$" <<<"$contents" && { echo "package has $file" >&2; exit 1; }
    done
    # Every dependency must be satisfiable on this (Debian) machine.
    dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/^ *\([^ ]*\).*/\1/' |
      while read -r dependency; do
        dpkg-query -W -f='${Status}' "$dependency" 2>/dev/null | grep -q "install ok installed" ||
          { echo "dependency $dependency is not installed" >&2; exit 1; }
      done
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    dpkg -x "$deb" "$scratch/root"
    head -n 1 "$scratch/root/usr/share/doc/icx/copyright" |
      grep -q "^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$" ||
      { echo "the copyright file is not in Debian's machine-readable format" >&2; exit 1; }
    gzip -t "$scratch/root/usr/share/man/man1/icx.1.gz" ||
      { echo "the packaged man page is not gzip" >&2; exit 1; }
    mkdir "$scratch/empty"
    output=$(cd "$scratch/empty" && "$scratch/root/usr/bin/icx" tp --model 70b --tokens 4096 --wire pcie5)
    echo "$output"
    grep -q "336 ms" <<<"$output" || { echo "unpacked icx printed an unexpected result" >&2; exit 1; }
    if command -v man >/dev/null; then
      man -l "$scratch/root/usr/share/man/man1/icx.1.gz" >/dev/null 2>&1 ||
        { echo "man cannot format the packaged page" >&2; exit 1; }
    fi
    echo "Package OK: $deb"
    ;;
esac
