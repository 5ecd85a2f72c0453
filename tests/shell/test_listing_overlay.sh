#!/usr/bin/env sh
# Every listing's JSON is a catalog overlay: fed back with --catalog it changes nothing, and
# an entry edited in it shows up in the listing.
#   test_listing_overlay.sh ICX SCRATCH_DIR
set -u
icx=$1
scratch=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch"
cd "$scratch" || fail "cannot enter $scratch"

for listing in links gpus models systems dtypes storage; do
  "$icx" "$listing" --json >"$listing.json" 2>err || fail "$listing --json: $(cat err)"
  "$icx" "$listing" >table 2>err || fail "$listing: $(cat err)"
  "$icx" "$listing" --catalog "$listing.json" >table.again 2>err ||
    fail "$listing --catalog $listing.json: $(cat err)"
  cmp -s table table.again || fail "$listing: the table changed with its own JSON as overlay"
  "$icx" "$listing" --json --catalog "$listing.json" >again.json 2>err ||
    fail "$listing --json --catalog $listing.json: $(cat err)"
  cmp -s "$listing.json" again.json || fail "$listing: the JSON changed with itself as overlay"
done

# Dump, edit, feed back: the edited figure is what the listing shows.
sed 's/"hbm_GB": 80,/"hbm_GB": 96,/' gpus.json >edited.json
cmp -s gpus.json edited.json && fail "the edit did not apply to gpus.json"
"$icx" gpus --catalog edited.json >table 2>err || fail "gpus --catalog edited.json: $(cat err)"
grep -q "^h100-sxm .* 96 GB " table || fail "the edited HBM does not show: $(grep h100-sxm table)"
echo "all checks passed"
