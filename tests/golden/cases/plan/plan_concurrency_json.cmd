args: plan --model 70b --ttft p99:1s --tpot p99:30ms --concurrency 64 --input 1000 --output 1000 --spread 0.2 --system aws-p5,aws-p4d,gb200-nvl72 --json
exit: 0
