env: --unset=LC_ALL LANG=C
args: tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --explain
exit: 0
