args: tp --model 70b --tokens 4096 --wire nvlink4,pcie5 --ascii --color always
exit: 0
