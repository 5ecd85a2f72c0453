args: coldstart --model 70b --from nvme-gen4 --sweep gpus=1:4 --json
exit: 0
