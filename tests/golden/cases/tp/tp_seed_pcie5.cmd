args: tp --model 70b --tokens 4096 --wire pcie5
exit: 0
