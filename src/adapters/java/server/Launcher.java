import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Starts the program under JDWP (a source file compiled, a Maven project built first) or attaches to one. */
final class Launcher {
    private static final String LISTENING = "Listening for transport dt_socket at address: ";
    private final Session s;
    final List<Thread> pumps = new ArrayList<>();

    Launcher(Session s) {
        this.s = s;
    }

    @SuppressWarnings("unchecked")
    void launch(Map<String, Object> a) throws Exception {
        if (a.get("cwd") != null) s.cwd = (String) a.get("cwd");
        for (Object p : (List<Object>) a.getOrDefault("sourcePaths", List.of())) s.sourcePaths.add((String) p);
        List<String> classPath = new ArrayList<>();
        for (Object p : (List<Object>) a.getOrDefault("classPaths", List.of())) classPath.add((String) p);
        String mainClass = (String) a.get("mainClass");
        String jar = (String) a.get("jar");
        if (a.get("mavenProject") != null) {
            Path dir = Path.of((String) a.get("mavenProject"));
            s.sourcePaths.add(dir.resolve("src/main/java").toString());
            classPath.addAll(maven(dir));
            if (mainClass == null) mainClass = pomMainClass(dir);
            if (mainClass == null) throw new IllegalArgumentException(dir.resolve("pom.xml") + " names no mainClass: give mainClass");
        }
        if (a.get("sourceFile") != null) {
            Path file = Path.of((String) a.get("sourceFile")).toAbsolutePath();
            Path out = Files.createTempDirectory("pairdbg-java-classes");
            out.toFile().deleteOnExit();
            compile(file, out);
            classPath.add(out.toString());
            String pkg = packageOf(file);
            String simple = file.getFileName().toString().replaceFirst("\\.java$", "");
            mainClass = pkg.isEmpty() ? simple : pkg + "." + simple;
            Path root = file.getParent();
            for (int k = 0; !pkg.isEmpty() && k < pkg.split("\\.").length && root.getParent() != null; k++) root = root.getParent();
            s.sourcePaths.add(root.toString());
        }
        if (mainClass == null && jar == null && a.get("program") != null) {
            throw new IllegalArgumentException(a.get("program") + " is not a .java file, a .jar or a Maven project (a folder with pom.xml);"
                    + " give a main class as module, with its classpath in CLASSPATH");
        }
        if (mainClass == null && jar == null) throw new IllegalArgumentException("launch needs mainClass, jar, sourceFile or mavenProject");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(words(a.get("vmArgs")));
        // Loopback only, on a port the system picks: nothing off this machine reaches the program.
        cmd.add("-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0");
        if (jar != null) {
            cmd.add("-jar");
            cmd.add(jar);
        } else {
            if (!classPath.isEmpty()) {
                cmd.add("-cp");
                cmd.add(String.join(File.pathSeparator, classPath));
            }
            cmd.add(mainClass);
        }
        cmd.addAll(words(a.get("args")));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(new File(s.cwd));
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, Object> env = (Map<String, Object>) a.getOrDefault("env", Map.of());
        for (Map.Entry<String, Object> e : env.entrySet()) pb.environment().put(e.getKey(), String.valueOf(e.getValue()));
        s.process = pb.start();
        pump(s.process.getErrorStream(), "stderr");
        BufferedReader out = new BufferedReader(new InputStreamReader(s.process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        int port = -1;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(LISTENING)) {
                port = Integer.parseInt(line.substring(LISTENING.length()).trim());
                break;
            }
            s.wire.output("stdout", line + "\n");
        }
        if (port < 0) {
            int code = s.process.waitFor();
            throw new IllegalStateException("java exited with code " + code + " before it could be debugged");
        }
        pump(out, "stdout");
        s.vm = attach("127.0.0.1", port);
        s.startSuspended = true;
        s.wire.event("process", Json.obj("name", mainClass != null ? mainClass : jar,
                "systemProcessId", s.process.pid(), "isLocalProcess", true, "startMethod", "launch"));
    }

    void attachTo(Map<String, Object> a) throws Exception {
        s.attached = true;
        String host = a.get("hostName") == null ? "127.0.0.1" : (String) a.get("hostName");
        Object port = a.get("port");
        if (!(port instanceof Number)) throw new IllegalArgumentException("attach needs port, the program's JDWP port");
        s.vm = attach(host, ((Number) port).intValue());
        for (com.sun.jdi.ThreadReference t : s.vm.allThreads()) {
            if (t.name().equals("main") && t.isSuspended()) s.startSuspended = true;
        }
    }

    private static VirtualMachine attach(String host, int port) throws Exception {
        for (AttachingConnector c : Bootstrap.virtualMachineManager().attachingConnectors()) {
            if (!c.name().equals("com.sun.jdi.SocketAttach")) continue;
            Map<String, Connector.Argument> args = c.defaultArguments();
            args.get("hostname").setValue(host);
            args.get("port").setValue(String.valueOf(port));
            return c.attach(args);
        }
        throw new IllegalStateException("this JDK has no socket attaching connector");
    }

    private void pump(InputStream in, String category) {
        pump(new InputStreamReader(in, StandardCharsets.UTF_8), category);
    }

    private void pump(Reader in, String category) {
        Thread t = new Thread(() -> {
            char[] buf = new char[8192];
            try {
                int n;
                while ((n = in.read(buf)) > 0) s.wire.output(category, new String(buf, 0, n));
            } catch (IOException e) {
                // The program closed it.
            }
        }, "output-" + category);
        t.setDaemon(true);
        t.start();
        pumps.add(t);
    }

    @SuppressWarnings("unchecked")
    private static List<String> words(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List) {
            for (Object w : (List<Object>) o) out.add(String.valueOf(w));
        } else if (o instanceof String && !((String) o).isBlank()) {
            for (String w : ((String) o).trim().split("\\s+")) out.add(w);
        }
        return out;
    }

    private void compile(Path file, Path out) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) throw new IllegalStateException("this Java has no compiler (javac): install a JDK, not a JRE");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = javac.run(null, null, err, "-g", "-d", out.toString(), file.toString());
        if (code != 0) {
            String text = err.toString(StandardCharsets.UTF_8);
            s.wire.output("stderr", text);
            throw new IllegalArgumentException("javac could not compile " + file + ": " + text.lines().findFirst().orElse(""));
        }
    }

    /** Builds the project and answers its classpath: target/classes and its dependencies. */
    private List<String> maven(Path dir) throws Exception {
        run(dir, "mvn", "-q", "compile");
        Path cpFile = Files.createTempFile("pairdbg-classpath", ".txt");
        try {
            run(dir, "mvn", "-q", "dependency:build-classpath", "-Dmdep.outputFile=" + cpFile);
            List<String> cp = new ArrayList<>();
            cp.add(dir.resolve("target/classes").toString());
            String deps = Files.readString(cpFile).trim();
            if (!deps.isEmpty()) cp.addAll(List.of(deps.split(File.pathSeparator)));
            return cp;
        } finally {
            Files.deleteIfExists(cpFile);
        }
    }

    private void run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            s.wire.output("stderr", text);
            throw new IllegalStateException(String.join(" ", cmd) + " failed in " + dir + ": "
                    + text.lines().filter(l -> l.contains("ERROR")).findFirst().orElse(text.trim()));
        }
    }

    static String pomMainClass(Path dir) throws IOException {
        // A plugin's <mainClass> (exec-maven-plugin, the jar plugin's manifest) or <exec.mainClass>.
        Matcher m = Pattern.compile("<((?:exec\\.)?mainClass)>\\s*([\\w.$]+)\\s*</\\1>").matcher(Files.readString(dir.resolve("pom.xml")));
        return m.find() ? m.group(2) : null;
    }

    private static String packageOf(Path file) throws IOException {
        Matcher m = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE).matcher(Files.readString(file));
        return m.find() ? m.group(1) : "";
    }
}
