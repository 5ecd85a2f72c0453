args: tp --model 70b --tokens 4k --wire pcie5
exit: 0
