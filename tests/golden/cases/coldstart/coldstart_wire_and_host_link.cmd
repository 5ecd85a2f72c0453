args: coldstart --model 70b --wire pcie5 --host-link pcie4
exit: 2
