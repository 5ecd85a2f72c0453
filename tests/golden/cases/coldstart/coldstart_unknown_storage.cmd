args: coldstart --model 70b --from nvme-gen6 --json
exit: 2
