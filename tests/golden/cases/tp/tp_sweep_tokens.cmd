args: tp --model 70b --wire nvlink4,pcie5 --sweep tokens=1024:8192:x2
exit: 0
