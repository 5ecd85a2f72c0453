args: tp --model 70b --tokens 4096 --wire pcie5 --json
exit: 0
