#!/usr/bin/python3
"""Hostile-input corpus for the varsim binary: generates cases by category (deep XML, many attributes, FIFOs and
devices, NUL bytes, duplicate keys, huge chains, extreme numbers in every scene key, truncated files, wrong JSON
types), runs each under a watchdog with its peak RSS measured (wait4), and prints per category: cases, exit codes,
crashes (killed by a signal or an exit code other than 0/2/3/4), hangs (past the watchdog: 60 s of the case's CPU
time, or 300 s of wall time for a case blocked without working; "long solves" are accepted plan problems still
printing Ipopt iterations when the watchdog stops them, counted as failures: `varsim plan` has a CPU budget of
20 s), the largest peak RSS of
a refused input and how many exceed 100 MB, and refusals whose message does not name the file or key of the case
("unexpected failure" messages are counted there too). Examples of every finding go to --log.

usage: scripts/hostile_corpus.py path/to/varsim [--jobs N] [--timeout S] [--sample K] [--log FILE] [--categories A,B]
  --sample K runs every K-th case (a quick subset); the full corpus (~16 500 cases) takes ~25 min on 2 cores at
  load ~10.
Not a CI test (too long). Exit 1 when any crash, hang, long solve, refused input over 100 MB or unnamed refusal is
found.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RSS_LIMIT_KB = 100 * 1024
CATEGORIES = ["deep_xml", "many_attributes", "fifos_devices", "nul_bytes", "duplicate_keys", "huge_chains",
              "extreme_numbers", "truncated", "wrong_types", "plan_range_ends"]
EXTREMES = ["1e-308", "-1e-308", "5e-324", "1e308", "-1e308", "1.7976931348623157e308", "0", "-0", "1e-300",
            "-1", "nan", "inf", "-inf", "1e999", "99999999999999999999", "0x10", " 1", "1e", ""]


class Case:
    def __init__(self, category, args, names, stdin_path=None):
        self.category, self.args, self.names = category, args, names


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def chain_urdf(n, shape="chain"):
    inertial = ('<inertial><origin xyz="0 0 -0.05"/><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" '
                'ixy="0" ixz="0" iyz="0"/></inertial>')
    s = ['<robot name="r"><link name="l0">' + inertial + '</link>']
    for i in range(1, n + 1):
        parent = {"chain": i - 1, "star": 0, "binary": (i - 1) // 2}[shape]
        s.append(f'<link name="l{i}">{inertial}</link><joint name="j{i}" type="revolute"><parent link="l{parent}"/>'
                 f'<child link="l{i}"/><origin xyz="0 0 -0.1"/><axis xyz="0 1 0"/>'
                 '<limit lower="-3" upper="3" effort="0" velocity="0"/></joint>')
    return "".join(s) + "</robot>"


class Corpus:
    def __init__(self, varsim, work):
        self.varsim, self.work, self.cases, self.n = varsim, work, [], 0
        self.scenes = subprocess.run([varsim, "list"], capture_output=True, text=True, check=True).stdout.split()
        self.describe = {s: json.loads(subprocess.run([varsim, "describe", s], capture_output=True, text=True,
                                                      check=True).stdout) for s in self.scenes}
        self.presets = sorted(os.path.join(ROOT, "assets/scenes", f) for f in os.listdir(os.path.join(ROOT, "assets/scenes")))
        self.problems = sorted(os.path.join(ROOT, "assets/problems", f) for f in os.listdir(os.path.join(ROOT, "assets/problems"))
                               if f.endswith(".json"))
        self.urdf = os.path.join(ROOT, "assets/urdf/varsim_arm.urdf")

    def path(self, name):
        self.n += 1
        return os.path.join(self.work, f"c{self.n}_{name}")

    def add(self, category, args, names):
        self.cases.append(Case(category, args, names))

    def run_file(self, category, path, kind):
        """The reader of `kind` on `path`: scene file, plan file, --input, URDF file, mesh."""
        if kind == "scene":
            self.add(category, ["run", path, "--steps", "2"], [path])
        elif kind == "plan":
            self.add(category, ["plan", path, "--csv", path + ".out.csv", "--inputs", path + ".in.csv"], [path])
        elif kind == "input":
            self.add(category, ["run", "car", "--input", path, "--steps", "2"], [path])
        elif kind == "urdf":
            self.add(category, ["run", "urdf", "--set", "file=" + path, "--steps", "2"], [path])
        elif kind == "mesh":
            u = write(self.path("mesh.urdf"), '<robot name="r"><link name="b"><inertial><mass value="1"/><inertia ixx="1" '
                      'iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry><mesh filename="' + path +
                      '"/></geometry></visual></link><link name="c"><inertial><mass value="1"/><inertia ixx="1" iyy="1" '
                      'izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link><joint name="j" type="revolute"><parent link="b"/>'
                      '<child link="c"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="0" velocity="0"/></joint></robot>')
            self.add(category, ["run", "urdf", "--set", "file=" + u, "--steps", "2"], [u])

    # --- categories -------------------------------------------------------------------------------------------
    def deep_xml(self):
        for depth in list(range(200, 320, 2)) + list(range(1000, 60001, 500)) + [100000, 200000]:
            for tag in ("a", "link", "robot"):
                body = f"<{tag}>" * depth + f"</{tag}>" * depth
                self.run_file("deep_xml", write(self.path("deep.urdf"), '<robot name="r"><link name="b"/>' + body + "</robot>"), "urdf")
        for depth in list(range(50, 80)) + [1000, 10000, 100000]:
            for opener, closer in (("[", "]"), ('{"a":', "}")):
                text = '{"scene":"car","params":{"m":' + opener * depth + "1" + closer * depth + "}}"
                self.run_file("deep_xml", write(self.path("deep.json"), text), "scene")

    def many_attributes(self):
        for n in list(range(50, 90)) + list(range(100, 200001, 4000)):
            attrs = "".join(f' x{i}="1"' for i in range(n))
            self.run_file("many_attributes", write(self.path("attrs.urdf"), f'<robot name="r"><link name="b"{attrs}/></robot>'), "urdf")
            if n % 5000 == 0:  # the same attribute repeated
                self.run_file("many_attributes", write(self.path("same.urdf"), '<robot name="r"><link name="b"' + ' x="1"' * n + "/></robot>"), "urdf")

    def fifos_devices(self):
        for kind in ("scene", "plan", "input", "urdf", "mesh"):
            for target in ("fifo", "/dev/zero", "/dev/urandom", "/dev/null", "dir", "missing", "/proc/self/mem",
                           "/dev/stdin", "loop"):
                for via in ("direct", "symlink", "symlink2"):
                    p = self.path(kind + ".f")
                    real = {"fifo": p + ".fifo", "dir": p + ".d", "missing": p + ".none", "loop": p + ".loop"}.get(target, target)
                    if target == "fifo":
                        os.mkfifo(real)
                    elif target == "dir":
                        os.mkdir(real)
                    elif target == "loop":
                        os.symlink(real, real)
                    if via == "direct":
                        p = real
                    elif via == "symlink":
                        os.symlink(real, p)
                    else:
                        os.symlink(real, p + ".l1")
                        os.symlink(p + ".l1", p)
                    self.run_file("fifos_devices", p, kind)

    def valid_texts(self):
        """(kind, name, text) of valid files of every reader."""
        out = [("scene", os.path.basename(f), open(f).read()) for f in self.presets]
        out += [("plan", os.path.basename(f), open(f).read()) for f in self.problems]
        out += [("input", "track.csv", "step,throttle,steer\n0,0.5,0\n10,1,0.2\n20,0,-0.3\nevent,30,param,m,3\n")]
        out += [("urdf", "arm.urdf", open(self.urdf).read())]
        return out

    def nul_bytes(self, per_file):
        rng = random.Random(37)
        for kind, name, text in self.valid_texts():
            data = text.encode()
            for pos in sorted(rng.sample(range(len(data) + 1), min(per_file, len(data) + 1))):
                self.run_file("nul_bytes", write(self.path(name), data[:pos] + b"\0" + data[pos:]), kind)

    def duplicate_keys(self):
        for kind, name, text in self.valid_texts():
            if kind not in ("scene", "plan"):
                continue
            doc = json.loads(text)
            pairs = []  # (path of the object, key) for every key of every object

            def walk(obj, where):
                if isinstance(obj, dict):
                    for k, v in obj.items():
                        pairs.append((where, k))
                        walk(v, where + [k])
            walk(doc, [])
            for where, key in pairs:
                sub = doc
                for w in where:
                    sub = sub[w]
                for val in (sub[key], "x", None):  # the key written twice in its object: same value, other, null
                    text2 = self._dump_with_duplicate(doc, where, key, val)
                    self.run_file("duplicate_keys", write(self.path(name), text2), kind)

    @staticmethod
    def _dump_with_duplicate(doc, where, key, val):
        def dump(obj, path):
            if isinstance(obj, dict):
                parts = [json.dumps(k) + ":" + dump(v, path + [k]) for k, v in obj.items()]
                if path == where:
                    parts.append(json.dumps(key) + ":" + json.dumps(val))
                return "{" + ",".join(parts) + "}"
            return json.dumps(obj)
        return dump(doc, [])

    def huge_chains(self):
        for shape in ("chain", "star", "binary"):
            for n in list(range(1, 40, 3)) + list(range(40, 520, 12)) + [499, 500, 501, 1000, 5000]:
                self.run_file("huge_chains", write(self.path(f"{shape}{n}.urdf"), chain_urdf(n, shape)), "urdf")

    def plan_range_ends(self):
        """Every plan key of every problem at both ends of its range (read from the refusal of 1e308), and every
        choice: accepted values that must solve, fail (exit 4) or be refused up front within the CPU budget."""
        one_per_scene = {}
        for problem in self.problems:  # the problems of one scene share its keys
            one_per_scene.setdefault(json.load(open(problem))["scene"], problem)
        for problem in one_per_scene.values():
            for key, allowed in plan_keys(self.varsim, self.work, problem):
                m = re.search(r"allowed (?:integer in )?[\[(]([^,\]]+), ([^\])]+)[\])]", allowed)
                values = list(m.groups()) if m else []
                c = re.search(r"one of: (.*)", allowed)
                if c:
                    values = c.group(1).split(", ")
                if "true|false" in allowed:
                    values = ["true", "false"]
                for v in values:
                    out = self.path("plan")
                    self.add("plan_range_ends", ["plan", problem, "--set", f"{key}={v}", "--csv", out + ".csv",
                                                 "--inputs", out + ".in.csv"], [key] if v else [])

    def extreme_numbers(self):
        for scene, d in self.describe.items():
            for p in d["params"]:
                if p["type"] not in ("real", "integer", "vector"):
                    continue
                for x in EXTREMES:
                    value = x
                    if p["type"] == "vector":
                        value = ",".join([x] * max(1, len(p["default"])))
                    self.add("extreme_numbers", ["run", scene, "--set", f'{p["key"]}={value}', "--steps", "2"], [p["key"]])

    def truncated(self, per_file):
        for kind, name, text in self.valid_texts():
            data = text.encode()
            for cut in sorted({len(data) * i // per_file for i in range(per_file)}):
                self.run_file("truncated", write(self.path(name), data[:cut]), kind)

    def wrong_types(self):
        wrong = [None, True, "1", [], {}, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], {"a": 1}, -1, 1e308, "", [[1]], 0.5]
        for kind, name, text in self.valid_texts():
            if kind not in ("scene", "plan"):
                continue
            doc = json.loads(text)
            for section in ("params", "plan"):
                for key in list(doc.get(section, {}) if isinstance(doc.get(section), dict) else []):
                    for w in wrong:
                        d2 = json.loads(text)
                        d2[section][key] = w
                        self.run_file("wrong_types", write(self.path(name), json.dumps(d2)), kind)
            for key in list(doc):
                for w in wrong:
                    d2 = json.loads(text)
                    d2[key] = w
                    self.run_file("wrong_types", write(self.path(name), json.dumps(d2)), kind)
        for scene, d in self.describe.items():  # every scene key in a scene file, each wrong type
            for p in d["params"]:
                for w in wrong[:6]:
                    f = write(self.path(scene + ".json"), json.dumps({"scene": scene, "params": {p["key"]: w}}))
                    self.add("wrong_types", ["run", f, "--steps", "2"], [f])


def cpu_seconds(pid):
    """User + system CPU seconds of a running process (all its threads), 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def plan_keys(varsim, work, problem):
    """(key, allowed text) of every plan key of a problem file's scene, read from varsim's own refusals."""
    scene = json.load(open(problem))["scene"]
    probe = write(os.path.join(work, "probe.json"), json.dumps({"scene": scene, "plan": {"zz_unknown": 1}}))
    err = subprocess.run([varsim, "plan", probe, "--csv", probe + ".csv", "--inputs", probe + ".in"],
                         capture_output=True, text=True).stderr
    keys = re.search(r"known keys: (.*)", err).group(1).split(", ")
    out = []
    for key in keys:
        err = subprocess.run([varsim, "plan", problem, "--set", key + "=1e308", "--csv", probe + ".csv", "--inputs",
                              probe + ".in"], capture_output=True, text=True).stderr
        out.append((key, err.strip().splitlines()[-1] if err.strip() else ""))
    return out


def run_case(varsim, case, timeout):
    """The watchdog stops a case after `timeout` s of its CPU time (the work it does, whatever the machine's load),
    or after 5 x `timeout` s of wall time (a reader blocked on a FIFO uses no CPU)."""
    start = time.monotonic()
    proc = subprocess.Popen([varsim] + case.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    os.set_blocking(proc.stderr.fileno(), False)
    err, hung, cpu, polls = b"", False, 0.0, 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        try:
            chunk = proc.stderr.read()
            if chunk and len(err) < 100000:
                err += chunk
        except (BlockingIOError, TypeError):
            pass
        if pid:
            break
        polls += 1
        if polls % 50 == 0:
            cpu = cpu_seconds(proc.pid)
        if cpu > timeout or time.monotonic() - start > 5 * timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(proc.pid, 0)
            hung = True
            break
        time.sleep(0.002)
    rest = proc.stderr.read() or b""
    err = (err + rest).decode(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    return {"code": code, "hung": hung, "rss": usage.ru_maxrss, "err": err, "seconds": time.monotonic() - start,
            "cpu": usage.ru_utime + usage.ru_stime}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("varsim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--sample", type=int, default=1)
    ap.add_argument("--log", default="hostile_corpus.log")
    ap.add_argument("--categories", default=",".join(CATEGORIES), help="comma list, default all: " + ",".join(CATEGORIES))
    a = ap.parse_args()
    varsim = os.path.abspath(a.varsim)
    work = tempfile.mkdtemp(prefix="varsim_hostile_")
    try:
        c = Corpus(varsim, work)
        for name in a.categories.split(","):
            if name not in CATEGORIES:
                sys.exit(f"--categories: unknown '{name}'; allowed: {', '.join(CATEGORIES)}")
            getattr(c, name)(*([100] if name in ("nul_bytes", "truncated") else []))
        cases = c.cases[::a.sample]
        stats = collections.OrderedDict()
        findings, slowest = [], {}
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = pool.map(lambda k: (k, run_case(varsim, k, a.timeout)), cases)
            for case, r in results:
                s = stats.setdefault(case.category, collections.Counter())
                s["cases"] += 1
                s["exit %d" % r["code"]] += 0 if r["hung"] else 1
                refused = r["code"] == 2
                kind = None
                if r["hung"] and "\niter " in r["err"]:
                    kind = "long_solve"  # an accepted plan problem still printing Ipopt iterations at the watchdog
                elif r["hung"]:
                    kind = "hang"
                elif r["code"] not in (0, 2, 3, 4):
                    kind = "crash"
                elif refused and r["rss"] > RSS_LIMIT_KB:
                    kind = "refused_over_100MB"
                elif refused and ("unexpected failure" in r["err"] or not all(n in r["err"] for n in case.names)):
                    kind = "unnamed_refusal"
                if refused:
                    s["max_refused_rss_kb"] = max(s["max_refused_rss_kb"], r["rss"])
                s["max_seconds_x100"] = max(s["max_seconds_x100"], int(100 * r["seconds"]))
                if int(100 * r["cpu"]) > s["max_cpu_x100"]:
                    s["max_cpu_x100"] = int(100 * r["cpu"])
                    slowest[case.category] = (f'{case.category} most CPU: {r["cpu"]:.1f} s, exit {r["code"]}: varsim '
                                              + " ".join(x[:120] for x in case.args))
                if kind:
                    s[kind] += 1
                    findings.append(f'{case.category} {kind} exit={r["code"]} rss={r["rss"]}KB '
                                    f'{r["seconds"]:.1f}s wall {r["cpu"]:.1f}s CPU: varsim {" ".join(x[:120] for x in case.args)}\n  '
                                    + r["err"].strip().replace("\n", "\n  ")[:600])
        with open(a.log, "w") as f:
            f.write("\n".join(findings + list(slowest.values())) + "\n")
        print(f"{len(cases)} cases in {time.monotonic() - t0:.0f} s ({a.jobs} jobs, watchdog {a.timeout:g} s); "
              f"findings in {a.log}")
        head = ("| category | cases | exit 0 | exit 2 | exit 3 | exit 4 | crashes | hangs | long solves | "
                "max RSS refused (MB) | refused > 100 MB | unnamed refusals | slowest wall (s) | most CPU (s) |")
        print(head)
        print("|" + "---|" * 14)
        total = collections.Counter()
        for cat, s in stats.items():
            print(f'| {cat} | {s["cases"]} | {s["exit 0"]} | {s["exit 2"]} | {s["exit 3"]} | {s["exit 4"]} | {s["crash"]} | '
                  f'{s["hang"]} | {s["long_solve"]} | {s["max_refused_rss_kb"] / 1024:.0f} | {s["refused_over_100MB"]} | '
                  f'{s["unnamed_refusal"]} | {s["max_seconds_x100"] / 100:.1f} | {s["max_cpu_x100"] / 100:.1f} |')
            total.update({k: v for k, v in s.items() if not k.startswith("max")})
        print(f'| all | {total["cases"]} | {total["exit 0"]} | {total["exit 2"]} | {total["exit 3"]} | {total["exit 4"]} | '
              f'{total["crash"]} | {total["hang"]} | {total["long_solve"]} | | {total["refused_over_100MB"]} | '
              f'{total["unnamed_refusal"]} | | |')
        bad = (total["crash"] + total["hang"] + total["long_solve"] + total["refused_over_100MB"] +
               total["unnamed_refusal"])
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
