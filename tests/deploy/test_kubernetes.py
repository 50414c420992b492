#!/usr/bin/env python3
"""deploy/kubernetes/ against the code: kustomize (kubectl kustomize) builds exactly our
manifests, the Kubernetes OpenAPI schemas (kubernetes-models, validate_kubernetes.js) accept
them, and their figures agree with the binary they run:
 - the command, its flags and every key of the ConfigMap's config file exist
   (`tensorgate serve --help`) and the real parser accepts the file;
 - the probes' paths answer 200 on a `tensorgate serve` started with that very file, on the port
   the container declares, which is the one the config listens on and the image exposes;
 - terminationGracePeriodSeconds outlasts the preStop pause plus drain-timeout-ms;
 - the memory limit covers the service's memory budget plus the allowance of docs/deploy.md,
   with every figure read from the binary's defaults and the config file, never written here;
 - the pod runs as the image's non-root user, read-only, without capabilities, under seccomp;
 - selectors, names and ports agree across the Deployment, Service, HPA, PDB, NetworkPolicy.

usage: test_kubernetes.py TENSORGATE
"""
import copy
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

from deploy_support import (ROOT, config_check, cpu_cores, effective_config, get,
                            memory_allowance_bytes, memory_budget_bytes, quantity_bytes, read_ini,
                            running_server, serve_options, tensorgate_path)

TENSORGATE = tensorgate_path(sys.argv)
KUBE = os.path.join(ROOT, "deploy", "kubernetes")
VALIDATOR = os.path.join(ROOT, "tests", "deploy", "validate_kubernetes.js")


def load(name):
    with open(os.path.join(KUBE, name), encoding="utf-8") as f:
        return yaml.safe_load(f)


def dockerfile_runtime():
    """The Dockerfile's last stage, as lines."""
    with open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8") as f:
        text = f.read()
    return text[text.rindex("\nFROM "):].splitlines()


class KubernetesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kustomization = load("kustomization.yaml")
        cls.objects = [load(name) for name in cls.kustomization["resources"]]
        cls.by_kind = {o["kind"]: o for o in cls.objects}
        cls.deployment = cls.by_kind["Deployment"]
        cls.pod = cls.deployment["spec"]["template"]["spec"]
        (cls.container,) = cls.pod["containers"]
        cls.configmap = cls.by_kind["ConfigMap"]
        cls.options = serve_options(TENSORGATE)
        args = cls.container["args"]
        cls.config_path = args[args.index("--config") + 1]
        (cls.config_key,) = cls.configmap["data"]
        cls.config_text = cls.configmap["data"][cls.config_key]
        flags = [a for i, a in enumerate(args) if a != "--config" and (i == 0 or args[i - 1] != "--config")]
        cls.config = effective_config(TENSORGATE, cls.config_text, flags)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.config_file = os.path.join(cls.tmp.name, cls.config_key)
        with open(cls.config_file, "w", encoding="utf-8") as f:
            f.write(cls.config_text)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def port(self, name):
        (port,) = [p for p in self.container["ports"] if p["name"] == name]
        return port["containerPort"]

    # --- the tools that read the manifests ------------------------------------------------------

    # scan-job.yaml is applied on its own (`kubectl apply -f`, docs/remote.md): a scan is a
    # one-off Job, never part of applying the service.
    STANDALONE = {"kustomization.yaml", "scan-job.yaml"}

    def test_kustomization_lists_every_manifest(self):
        files = sorted(f for f in os.listdir(KUBE) if f.endswith(".yaml") and f not in self.STANDALONE)
        self.assertEqual(sorted(self.kustomization["resources"]), files)

    def test_openapi_schemas_accept_the_scan_job(self):
        with open(os.path.join(KUBE, "scan-job.yaml"), encoding="utf-8") as f:
            objects = [d for d in yaml.safe_load_all(f) if d]
        self.assertIn("Job", [o["kind"] for o in objects])
        out = self.validate_schemas(objects)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(out.stdout.count("valid   "), len(objects), out.stdout)

    def test_kubectl_kustomize_builds_exactly_these_objects(self):
        kubectl = shutil.which("kubectl")
        self.assertIsNotNone(kubectl, "kubectl is installed by scripts/setup.sh")
        out = subprocess.run([kubectl, "kustomize", KUBE], capture_output=True, text=True, check=False)
        self.assertEqual(out.returncode, 0, out.stderr)
        built = [d for d in yaml.safe_load_all(out.stdout) if d]
        self.assertEqual(sorted((d["kind"], d["metadata"]["name"]) for d in built),
                         sorted((o["kind"], o["metadata"]["name"]) for o in self.objects))
        (deployment,) = [d for d in built if d["kind"] == "Deployment"]
        (image,) = self.kustomization["images"]
        self.assertEqual(deployment["spec"]["template"]["spec"]["containers"][0]["image"],
                         f"{image['name']}:{image['newTag']}")

    def validate_schemas(self, objects):
        node = shutil.which("node")
        self.assertIsNotNone(node, "node is installed by scripts/setup.sh")
        self.assertTrue(os.path.isdir(os.path.join(ROOT, "tests", "deploy", "node_modules", "kubernetes-models")),
                        "run scripts/setup.sh (npm ci in tests/deploy)")
        return subprocess.run([node, VALIDATOR], input=json.dumps(objects), capture_output=True,
                              text=True, check=False)

    def test_openapi_schemas_accept_every_object(self):
        out = self.validate_schemas(self.objects)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertEqual(out.stdout.count("valid   "), len(self.objects), out.stdout)

    def test_openapi_schemas_refuse_a_broken_object(self):
        broken = copy.deepcopy(self.deployment)
        broken["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "eighty"
        out = self.validate_schemas([broken])
        self.assertEqual(out.returncode, 1, out.stdout)
        self.assertIn("containerPort must be integer", out.stdout)

    # --- the binary the Deployment runs ---------------------------------------------------------

    def test_command_flags_and_config_keys_exist(self):
        copied = [l for l in dockerfile_runtime() if l.startswith("COPY --from=build")]
        self.assertEqual(self.container["command"][0], copied[0].split()[-1])
        self.assertEqual(self.container["command"][1:], ["serve"])
        for arg in self.container["args"]:
            if arg.startswith("--"):
                self.assertIn(arg[2:], self.options, arg)
        for key in read_ini(self.config_text):
            self.assertIn(key, self.options, key)
        self.assertEqual(config_check(TENSORGATE, self.config_file), (0, ""))
        bogus = os.path.join(self.tmp.name, "bogus.conf")
        with open(bogus, "w", encoding="utf-8") as f:
            f.write(self.config_text + "max-bodybytes = 5\n")
        self.assertNotEqual(config_check(TENSORGATE, bogus)[0], 0)

    def test_config_is_mounted_where_the_flag_points(self):
        (mount,) = self.container["volumeMounts"]
        self.assertTrue(mount["readOnly"])
        self.assertEqual(os.path.join(mount["mountPath"], self.config_key), self.config_path)
        (volume,) = [v for v in self.pod["volumes"] if v["name"] == mount["name"]]
        self.assertEqual(volume["configMap"]["name"], self.configmap["metadata"]["name"])

    def test_probes_answer_on_the_declared_port(self):
        listen_port = int(self.config["listen"].rsplit(":", 1)[1])
        self.assertEqual(listen_port, self.port("http"))
        self.assertEqual(self.config["listen"].rsplit(":", 1)[0], "0.0.0.0")
        self.assertIn(f"EXPOSE {listen_port}", dockerfile_runtime())
        probes = {name: self.container[name]["httpGet"] for name in ("livenessProbe", "readinessProbe")}
        annotations = self.deployment["spec"]["template"]["metadata"]["annotations"]
        self.assertEqual(int(annotations["prometheus.io/port"]), listen_port)
        with running_server(TENSORGATE, self.config_file) as port:
            for name, probe in probes.items():
                self.assertEqual(probe["port"], "http", name)
                self.assertEqual(get(port, probe["path"]), 200, name)
            self.assertEqual(get(port, "/no-such-probe"), 404)  # the check above can fail
            self.assertEqual(probes["livenessProbe"]["path"], "/livez")
            self.assertEqual(probes["readinessProbe"]["path"], "/readyz")  # 503 while draining
            self.assertEqual(get(port, annotations["prometheus.io/path"]), 200)

    def test_grace_period_outlasts_pre_stop_and_drain(self):
        command = self.container["lifecycle"]["preStop"]["exec"]["command"]
        self.assertEqual(command[0], "/bin/sleep")  # the runtime image is Debian: coreutils
        self.assertTrue(any(l.startswith("FROM debian:") for l in dockerfile_runtime()))
        pause = int(command[1])
        drain_seconds = int(self.config["drain-timeout-ms"]) / 1000
        self.assertGreater(self.pod["terminationGracePeriodSeconds"], pause + drain_seconds)

    def test_memory_limit_covers_budget_and_allowance(self):
        resources = self.container["resources"]
        limit = quantity_bytes(resources["limits"]["memory"])
        self.assertEqual(quantity_bytes(resources["requests"]["memory"]), limit)
        budget = memory_budget_bytes(self.config)
        self.assertGreaterEqual(limit, budget + memory_allowance_bytes(self.config))
        # ... and not far above it: the limit is derived from the budget, not picked.
        self.assertLessEqual(limit, 2 * budget + memory_allowance_bytes(self.config))

    def test_threads_fit_the_cpu_limit(self):
        threads = int(self.config["threads"])
        cpu = cpu_cores(self.container["resources"]["limits"]["cpu"])
        self.assertGreaterEqual(threads, 1)  # 0 would start one per core of the node
        self.assertLessEqual(threads, cpu)
        self.assertEqual(cpu_cores(self.container["resources"]["requests"]["cpu"]), cpu)

    def test_pod_runs_as_the_images_user_without_privileges(self):
        pod_sc, sc = self.pod["securityContext"], self.container["securityContext"]
        useradd = [l for l in dockerfile_runtime() if "useradd" in l]
        uid = int(re.search(r"--uid (\d+)", useradd[0]).group(1))
        self.assertIn("USER tensorgate", dockerfile_runtime())
        self.assertTrue(pod_sc["runAsNonRoot"])
        self.assertEqual(pod_sc["runAsUser"], uid)
        self.assertNotEqual(uid, 0)
        self.assertEqual(pod_sc["seccompProfile"], {"type": "RuntimeDefault"})
        self.assertIs(sc["readOnlyRootFilesystem"], True)
        self.assertIs(sc["allowPrivilegeEscalation"], False)
        self.assertIs(sc["privileged"], False)
        self.assertEqual(sc["capabilities"], {"drop": ["ALL"]})
        self.assertIs(self.pod["automountServiceAccountToken"], False)

    # --- the objects agree with each other ------------------------------------------------------

    def test_selectors_names_and_ports_agree(self):
        labels = self.deployment["spec"]["template"]["metadata"]["labels"]
        selector = self.deployment["spec"]["selector"]["matchLabels"]
        self.assertLessEqual(selector.items(), labels.items())
        service, pdb = self.by_kind["Service"], self.by_kind["PodDisruptionBudget"]
        policy, hpa = self.by_kind["NetworkPolicy"], self.by_kind["HorizontalPodAutoscaler"]
        self.assertLessEqual(service["spec"]["selector"].items(), labels.items())
        self.assertEqual(pdb["spec"]["selector"]["matchLabels"], selector)
        self.assertEqual(policy["spec"]["podSelector"]["matchLabels"], selector)
        (service_port,) = service["spec"]["ports"]
        self.assertEqual(service_port["targetPort"], "http")
        (rule,) = policy["spec"]["ingress"]
        self.assertEqual([p["port"] for p in rule["ports"]], ["http"])
        self.assertEqual(policy["spec"]["egress"], [])
        self.assertEqual(policy["spec"]["policyTypes"], ["Ingress", "Egress"])
        target = hpa["spec"]["scaleTargetRef"]
        self.assertEqual((target["kind"], target["name"]), ("Deployment", self.deployment["metadata"]["name"]))

    def test_replicas_survive_a_disruption(self):
        hpa, pdb = self.by_kind["HorizontalPodAutoscaler"], self.by_kind["PodDisruptionBudget"]
        self.assertGreaterEqual(hpa["spec"]["minReplicas"], 2)
        self.assertLess(pdb["spec"]["maxUnavailable"], hpa["spec"]["minReplicas"])
        self.assertEqual(self.deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"], 0)
        (metric,) = hpa["spec"]["metrics"]
        self.assertEqual(metric["resource"]["name"], "cpu")

    def test_the_metric_the_scaling_note_names_exists(self):
        with open(os.path.join(KUBE, "hpa.yaml"), encoding="utf-8") as f:
            note = f.read()
        names = set(re.findall(r"name: (tensorgate_[a-z_]+)", note))
        self.assertEqual(names, {"tensorgate_uploads_in_flight"})
        half = int(re.search(r'averageValue: "(\d+)"', note).group(1))
        self.assertEqual(half, int(self.config["max-concurrent-uploads"]) // 2)
        with running_server(TENSORGATE, self.config_file) as port:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/metrics")
            body = conn.getresponse().read().decode()
            conn.close()
        self.assertIn("# TYPE tensorgate_uploads_in_flight gauge", body)


if __name__ == "__main__":
    unittest.main()
