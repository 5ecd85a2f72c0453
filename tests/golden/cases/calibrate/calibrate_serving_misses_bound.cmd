args: calibrate --serving serving/vllm_llama33_70b_tp8_a100_qps_inf.json --model 70b --system aws-p4d --tp 8 -o /tmp/icx-golden-never-written.json
exit: 2
