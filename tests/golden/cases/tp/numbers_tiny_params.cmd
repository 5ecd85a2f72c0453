args: tp --model 70b --params 1e-300 --wire pcie5
exit: 2
