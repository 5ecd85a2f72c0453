env: COLUMNS=100
args: tp --model 70b --tokens 4096 --wire nvlink4,pcie5
exit: 0
