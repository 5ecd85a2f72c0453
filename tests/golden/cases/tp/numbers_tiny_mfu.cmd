args: tp --model 70b --mfu 1e-300 --wire pcie5
exit: 2
