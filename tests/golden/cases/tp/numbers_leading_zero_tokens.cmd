args: tp --model 70b --tokens 01024 --wire pcie5
exit: 0
