# bash completion for icx: subcommands, each subcommand's flags, and catalog ids for the
# flags that take one. Everything is read from icx itself at completion time (its --help and
# its --json listings), so completion follows the installed version and any --catalog files
# already on the command line.

# The subcommands icx --help lists.
_icx_subcommands() {
  "$1" --help 2>/dev/null | sed -n '/^Subcommands:$/,/^$/ s/^  \([a-z][a-z0-9-]*\) .*/\1/p'
}

# Ids of one catalog listing: _icx_ids ICX LISTING [--catalog FILE]...
_icx_ids() {
  local icx=$1 listing=$2
  shift 2
  "$icx" "$listing" --json "$@" 2>/dev/null | sed -n 's/^      "id": "\(.*\)",$/\1/p'
}

# The values --help lists for one flag of a subcommand: _icx_choices HELP FLAG.
_icx_choices() {
  grep -E -- "^  ([^ ]*,)?$2(,[^ ]*)? " <<<"$1" | sed -n 's/^[^{]*:{\([^}]*\)}.*/\1/p' | tr ',' ' '
}

_icx() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local icx=${COMP_WORDS[0]}
  command -v "$icx" >/dev/null 2>&1 || icx=icx
  COMPREPLY=()

  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_icx_subcommands "$icx") --help --version" -- "$cur")
    return
  fi
  local subcommand=${COMP_WORDS[1]}

  # "--wire=pc": bash splits at '=' when COMP_WORDBREAKS holds it.
  if [[ $cur == = ]]; then
    cur=""
  elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi

  local -a catalogs=()
  local i
  for ((i = 2; i < COMP_CWORD - 1; i++)); do
    if [[ ${COMP_WORDS[i]} == --catalog ]]; then
      catalogs+=(--catalog "${COMP_WORDS[i + 1]}")
    fi
  done

  local listing="" list_values=""
  case $prev in
    -m | --model) listing=models ;;
    -w | --wire | --host-link) listing=links list_values=yes ;;
    --scale-up | --scale-out | --pcie) listing=links ;;
    --gpu) listing=gpus ;;
    -s | --system)
      listing=systems
      # icx plan takes a comma-separated list of systems.
      [[ $subcommand == plan ]] && list_values=comma
      ;;
    --dtype | --dispatch-dtype | --combine-dtype) listing=dtypes ;;
    --from) listing=storage ;;
    --loader) listing=loaders ;;
    --engine | --emit) listing=engines ;;
    --catalog | --hf-config | --measured | --plot | -o | --output)
      # icx plan and icx place take --output N (tokens per request), not a file.
      [[ $prev == --output && ($subcommand == plan || $subcommand == place) ]] && return
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
  esac
  if [[ -n $listing ]]; then
    local words prefix=""
    words=$(_icx_ids "$icx" "$listing" "${catalogs[@]}")
    if [[ -n $list_values ]]; then
      [[ $list_values == yes ]] && words+=" all"
      # Comma-separated lists: complete the last item.
      if [[ $cur == *,* ]]; then
        prefix=${cur%,*},
        cur=${cur##*,}
      fi
    fi
    mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "$words" -- "$cur")
    return
  fi

  local help
  help=$("$icx" "$subcommand" --help 2>/dev/null) || return
  # A flag followed by one space and a metavar ("--tokens N") takes a value; --help shows the
  # values icx knows after the metavar ("GOAL:{latency,throughput}"), else icx cannot guess.
  local value_flags
  value_flags=$(sed -n 's/^  \(-[^ ]*\) [A-Z].*/\1/p' <<<"$help" | tr ',' ' ')
  local flag
  for flag in $value_flags; do
    if [[ $prev == "$flag" ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$(_icx_choices "$help" "$flag")" -- "$cur")
      return
    fi
  done
  # The first word after the subcommand may be its positional (icx collective OP).
  if ((COMP_CWORD == 2)) && [[ $cur != -* ]]; then
    local positional
    positional=$(sed -n '/^Positionals:$/,/^$/ s/^  [a-z][a-z_]* [A-Z]*:{\([^}]*\)}.*/\1/p' <<<"$help" |
      tr ',' ' ')
    if [[ -n $positional ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$positional" -- "$cur")
      return
    fi
  fi
  local flags
  flags=$(sed -n 's/^  \(-[^ ]*\).*/\1/p' <<<"$help" | tr ',' '\n' | grep -- '^--')
  mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
}

complete -F _icx icx
