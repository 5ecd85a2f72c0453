args: offload --model 70b --gpu h100 --context 4096 --sweep batch=1:4 --format csv
exit: 0
