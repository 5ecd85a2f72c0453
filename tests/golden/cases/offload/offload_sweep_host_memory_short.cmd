args: offload --model 70b --gpu h100 --host-memory 200GB --context 131072 --sweep batch=1:16:x4
exit: 0
