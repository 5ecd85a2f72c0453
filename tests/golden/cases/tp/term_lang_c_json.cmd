env: --unset=LC_ALL LANG=C
args: tp --model 70b --tokens 4096 --wire pcie5 --json --explain
exit: 0
