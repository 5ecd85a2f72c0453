args: tp --model 70b --tokens 4096 --wire nvlink5,nvlink4,pcie5,ib-ndr --json
exit: 0
