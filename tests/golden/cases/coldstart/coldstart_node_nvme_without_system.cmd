args: coldstart --model 70b --from node-nvme
exit: 2
