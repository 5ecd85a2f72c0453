args: tp --model 70b --tokens 4K --wire pcie5
exit: 2
